/*
 * Reads a tune2048 network file (docs/networks.md, "The network file") and prints the value of boards:
 * the score the network expects still to come from an afterstate. The same sums in the same order as
 * tune2048, so the value is tune2048's to the bit.
 *
 *   cc -O2 -o network_value network_value.c
 *   ./network_value NET.bin 1 2 3 4 0 0 0 0 0 0 0 0 0 0 0 1   (16 ranks, row by row: 0 empty, 1 = 2, 2 = 4, ...)
 *   ./network_value NET.bin < boards.txt                     (one board of 16 ranks a line)
 *
 * Little-endian machines only (the file's floats are little-endian).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TUPLES 64
#define MAX_CELLS 8
#define MAX_STAGES 8

static int tuple_count, tuple_len[MAX_TUPLES], tuple_cells[MAX_TUPLES][MAX_CELLS];
static int stage_count, stage_of_rank[16], promote;
static float *tables[MAX_STAGES][MAX_TUPLES]; /* the table of (stage, tuple): 16^length entries */

static void fail(const char *what) {
  fprintf(stderr, "network_value: %s\n", what);
  exit(2);
}

/* The header's JSON is tune2048's own, compact: {"tuples":[[..],..],"stages":[{"maxTile":[lo,hi]},..],"promote":b} */
static void parse_header(const char *json) {
  const char *p = strstr(json, "\"tuples\":[");
  if (!p) fail("no tuples in the header");
  p += strlen("\"tuples\":[");
  while (*p == '[') {
    if (tuple_count == MAX_TUPLES) fail("too many tuples");
    p++;
    int n = 0;
    while (*p != ']') {
      if (n == MAX_CELLS) fail("a tuple too long");
      tuple_cells[tuple_count][n++] = (int)strtol(p, (char **)&p, 10);
      if (*p == ',') p++;
    }
    tuple_len[tuple_count++] = n;
    p++; /* ] */
    if (*p == ',') p++;
  }
  for (const char *s = strstr(json, "\"maxTile\":["); s; s = strstr(s + 1, "\"maxTile\":[")) {
    if (stage_count == MAX_STAGES) fail("too many stages");
    char *q;
    long lo = strtol(s + strlen("\"maxTile\":["), &q, 10), hi = strtol(q + 1, NULL, 10);
    for (int r = 0; r < 16; r++)
      if ((1L << r) >= lo && (1L << r) <= hi) stage_of_rank[r] = stage_count;
    stage_count++;
  }
  promote = strstr(json, "\"promote\":true") != NULL;
}

static void load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail("cannot open the network file");
  char magic[8];
  uint32_t version, length;
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "tune2048", 8) != 0) fail("not a tune2048 file");
  if (fread(&version, 4, 1, f) != 1 || version != 2) fail("not a network file of version 2");
  if (fread(&length, 4, 1, f) != 1) fail("truncated");
  char *json = calloc(length + 1, 1);
  if (fread(json, 1, length, f) != length) fail("truncated");
  parse_header(json);
  free(json);
  for (int s = 0; s < stage_count; s++)
    for (int t = 0; t < tuple_count; t++) {
      size_t n = (size_t)1 << (4 * tuple_len[t]);
      tables[s][t] = malloc(n * sizeof(float));
      if (!tables[s][t] || fread(tables[s][t], sizeof(float), n, f) != n) fail("truncated");
    }
  fclose(f);
}

/* The 8 symmetric grids in tune2048's order: I, H (mirror left-right), V (top-bottom), HV, T (transpose), HT, VT, HVT. */
static void symmetries(const int g[16], int out[8][16]) {
  int t[16];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) t[4 * r + c] = g[4 * c + r];
  for (int k = 0; k < 2; k++) {
    const int *b = k == 0 ? g : t;
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
        out[4 * k + 0][4 * r + c] = b[4 * r + c];
        out[4 * k + 1][4 * r + c] = b[4 * r + (3 - c)];
        out[4 * k + 2][4 * r + c] = b[4 * (3 - r) + c];
        out[4 * k + 3][4 * r + c] = b[4 * (3 - r) + (3 - c)];
      }
  }
}

/* An entry as the value reads it: with promotion, a 0 in a later stage is the same entry of the stage below. */
static float entry(int stage, int tuple, uint32_t index) {
  float v = tables[stage][tuple][index];
  while (v == 0 && promote && stage > 0) v = tables[--stage][tuple][index];
  return v;
}

static double value(const int ranks[16]) {
  int top = 0, sym[8][16];
  for (int i = 0; i < 16; i++)
    if (ranks[i] > top) top = ranks[i];
  int stage = stage_of_rank[top];
  symmetries(ranks, sym);
  double sum = 0;
  for (int t = 0; t < tuple_count; t++)
    for (int k = 0; k < 8; k++) {
      uint32_t index = 0; /* the tuple's first cell is the index's least significant hex digit */
      for (int i = tuple_len[t] - 1; i >= 0; i--) index = index * 16 + (uint32_t)sym[k][tuple_cells[t][i]];
      sum += (double)entry(stage, t, index);
    }
  return sum;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 18) fail("usage: network_value NET.bin [16 ranks]  (or boards of 16 ranks on stdin, one a line)");
  load(argv[1]);
  int ranks[16];
  if (argc == 18) {
    for (int i = 0; i < 16; i++) ranks[i] = atoi(argv[2 + i]);
    printf("%.17g\n", value(ranks));
    return 0;
  }
  for (;;) {
    for (int i = 0; i < 16; i++)
      if (scanf("%d", &ranks[i]) != 1) return 0;
    printf("%.17g\n", value(ranks));
  }
}
