// A template every instantiation of which is an error, and an inline
// function of the header that instantiates it (the preamble's own pending
// instantiation). Stock clangd skips both bodies: nothing is diagnosed.
#pragma once

template <typename T> int fieldOf(T X) { return X.Field; }

inline int headerUse() { return fieldOf(4); }
