{
  "targets": [
    {
      "target_name": "huge_pages",
      "sources": ["huge-pages.cc"],
      "cflags_cc": ["-O2", "-Wno-cast-function-type"]
    }
  ]
}
