// Included after the first declaration of the file: not in its preamble.
#define STORE_TILE(Map, Buf) tmaStore2d(&(Map), (Buf), 0, 0)
