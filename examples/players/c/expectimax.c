/*
 * A small expectimax 2048 player for tune2048's line protocol (docs/protocol.md), in C99 with the
 * standard library only. The board is 16 ranks in a 64-bit word; moves and the heuristic are looked up
 * per row (65,536 entries), the heuristic rebuilt when a parameter changes. Its five weights are the
 * tunable parameters; the search depth is a command-line setting (0 to 4; 0: greedy):  ./expectimax [--depth N]
 *
 * Build:  cc -O2 -o expectimax expectimax.c -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t board_t;

static uint16_t slide_left[65536], slide_right[65536];
static double row_value[65536];
static int depth_limit = 1;

enum { P_EMPTY, P_MERGES, P_MONO, P_MONO_POWER, P_SUM, P_COUNT };
static const char *param_name[P_COUNT] = {"empty", "merges", "monotonicity", "monotonicityPower", "sum"};
/* The hand-set defaults tune2048 starts from, and their bounds. */
static double param[P_COUNT] = {100.0, 100.0, 10.0, 2.0, 1.0};
static const double param_min[P_COUNT] = {0, 0, 0.1, 1, 0.01};
static const double param_max[P_COUNT] = {2000, 2000, 1000, 5, 100};
static const char *param_scale[P_COUNT] = {"linear", "linear", "log", "linear", "log"};
static int dirty = 1;

static uint16_t reverse_row(uint16_t r) { return (uint16_t)((r >> 12) | ((r >> 4) & 0x00F0) | ((r << 4) & 0x0F00) | (r << 12)); }

static void build_moves(void) {
    for (int r = 0; r < 65536; r++) {
        int line[4] = {r & 15, (r >> 4) & 15, (r >> 8) & 15, (r >> 12) & 15}, out[4] = {0, 0, 0, 0}, n = 0, last = 0;
        for (int i = 0; i < 4; i++) {
            if (!line[i]) continue;
            if (last && last == line[i] && last < 15) { out[n - 1] = last + 1; last = 0; }
            else { out[n++] = line[i]; last = line[i]; }
        }
        uint16_t moved = (uint16_t)(out[0] | out[1] << 4 | out[2] << 8 | out[3] << 12);
        slide_left[r] = moved;
        slide_right[reverse_row((uint16_t)r)] = reverse_row(moved);
    }
}

static void build_heuristic(void) {
    for (int r = 0; r < 65536; r++) {
        int line[4] = {r & 15, (r >> 4) & 15, (r >> 8) & 15, (r >> 12) & 15};
        int empty = 0, merges = 0, prev = 0;
        double left = 0, right = 0, sum = 0;
        for (int i = 0; i < 4; i++) {
            sum += pow(line[i], 3.0);
            if (!line[i]) { empty++; continue; }
            if (prev == line[i]) merges++;
            prev = line[i];
        }
        for (int i = 1; i < 4; i++) {
            double a = pow(line[i - 1], param[P_MONO_POWER]), b = pow(line[i], param[P_MONO_POWER]);
            if (a > b) left += a - b; else right += b - a;
        }
        row_value[r] = param[P_EMPTY] * empty + param[P_MERGES] * merges - param[P_MONO] * (left < right ? left : right) - param[P_SUM] * sum;
    }
    dirty = 0;
}

/* Row i (0 = top) of the board, its cells left to right in the low to high nibbles; cell 0 is the top left. */
static uint16_t row_of(board_t b, int i) { return (uint16_t)(b >> (16 * i)); }

static board_t transpose(board_t b) {
    board_t t = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) t |= ((b >> (4 * (4 * i + j))) & 15) << (4 * (4 * j + i));
    return t;
}

/* dir: 0 up, 1 down, 2 left, 3 right (the protocol's order). */
static board_t play(board_t b, int dir) {
    board_t t = dir < 2 ? transpose(b) : b, out = 0;
    const uint16_t *table = (dir == 0 || dir == 2) ? slide_left : slide_right;
    for (int i = 0; i < 4; i++) out |= (board_t)table[row_of(t, i)] << (16 * i);
    return dir < 2 ? transpose(out) : out;
}

static double evaluate(board_t b) {
    board_t t = transpose(b);
    double v = 0;
    for (int i = 0; i < 4; i++) v += row_value[row_of(b, i)] + row_value[row_of(t, i)];
    return v;
}

static double max_node(board_t b, int depth);

/* Positions expanded (chance nodes, and max nodes above the leaves, as tune2048 counts them): the cost each move answer reports ("nodes K"). */
static long long nodes = 0;

/* The expected value over every empty cell and both tiles (2: 0.9, 4: 0.1). */
static double chance_node(board_t b, int depth) {
    nodes++;
    int empty = 0;
    double total = 0;
    for (int c = 0; c < 16; c++) {
        if ((b >> (4 * c)) & 15) continue;
        empty++;
        total += 0.9 * max_node(b | ((board_t)1 << (4 * c)), depth) + 0.1 * max_node(b | ((board_t)2 << (4 * c)), depth);
    }
    return empty ? total / empty : evaluate(b);
}

static double max_node(board_t b, int depth) {
    if (depth == 0) return evaluate(b);
    nodes++;
    double best = 0; /* a lost board is worth 0 */
    for (int d = 0; d < 4; d++) {
        board_t after = play(b, d);
        if (after == b) continue;
        double v = chance_node(after, depth - 1);
        if (v > best) best = v;
    }
    return best;
}

/* The best move: the root move, then depth_limit chance layers (the last one's boards are evaluated); depth 0: greedy on the boards after the move. */
static int choose(board_t b, double values[4]) {
    int best = -1;
    for (int d = 0; d < 4; d++) {
        board_t after = play(b, d);
        values[d] = NAN;
        if (after == b) continue;
        values[d] = depth_limit == 0 ? evaluate(after) : chance_node(after, depth_limit - 1);
        if (best < 0 || values[d] > values[best]) best = d;
    }
    return best;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--depth") && i + 1 < argc) depth_limit = atoi(argv[++i]);
        else { fprintf(stderr, "usage: %s [--depth N]\n", argv[0]); return 2; }
    }
    if (depth_limit < 0 || depth_limit > 4) { fprintf(stderr, "--depth must be 0 to 4\n"); return 2; }
    static const char *names[4] = {"up", "down", "left", "right"};
    char line[256], cmd[32], arg1[64], arg2[64];
    build_moves();
    while (fgets(line, sizeof line, stdin)) {
        int n = sscanf(line, "%31s %63s %63s", cmd, arg1, arg2);
        if (n < 1) continue;
        if (!strcmp(cmd, "tune2048")) {
            printf("name expectimax-c\nversion 1.1-d%d\n", depth_limit);
            printf("cost nodes\n");
            for (int p = 0; p < P_COUNT; p++) printf("param %s %.17g %.17g %.17g %s\n", param_name[p], param[p], param_min[p], param_max[p], param_scale[p]);
            printf("ready\n");
        } else if (!strcmp(cmd, "set") && n == 3) {
            int p = 0;
            while (p < P_COUNT && strcmp(param_name[p], arg1)) p++;
            if (p == P_COUNT) printf("error unknown parameter %s\n", arg1);
            else { param[p] = strtod(arg2, NULL); dirty = 1; }
        } else if (!strcmp(cmd, "newgame")) {
            printf("ok\n");
        } else if (!strcmp(cmd, "board") && n == 3 && strlen(arg2) == 16) {
            board_t b = 0;
            for (int c = 0; c < 16; c++) {
                char h[2] = {arg2[c], 0};
                b |= (board_t)strtol(h, NULL, 16) << (4 * c);
            }
            if (dirty) build_heuristic();
            double values[4];
            nodes = 0;
            int move = choose(b, values);
            if (move < 0) printf("error no legal move on board %s\n", arg1);
            else {
                printf("move %s %s", arg1, names[move]);
                for (int d = 0; d < 4; d++) {
                    if (isnan(values[d])) printf(" -");
                    else printf(" %.17g", values[d]);
                }
                printf(" nodes %lld\n", nodes);
            }
        } else if (!strcmp(cmd, "quit")) {
            break;
        } else {
            printf("error unknown command %s\n", cmd);
        }
        fflush(stdout);
    }
    return 0;
}
