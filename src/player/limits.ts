/** Search limits, in a module of their own so option parsers can check them without loading the search. */
export const MAX_DEPTH = 12;
/** Threads of a root split at most. */
export const MAX_THREADS = 64;
