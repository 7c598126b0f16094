# normpath(p): p with "." and "dir/.." segments removed (lexically, as
# Python's os.path.normpath), so that one header reached through different
# "../" paths is one site. Shared by the bench summaries.
function normpath(p,    n, i, a, s, k, out) {
  n = split(p, a, "/")
  k = 0
  for (i = 1; i <= n; i++) {
    if ((a[i] == "" && i > 1) || a[i] == ".")
      continue
    if (a[i] == ".." && k > 0 && s[k] != ".." && s[k] != "") {
      k--
      continue
    }
    s[++k] = a[i]
  }
  out = s[1]
  for (i = 2; i <= k; i++)
    out = out "/" s[i]
  return out
}
