# SPDX-License-Identifier: BSD-2-Clause
FNR==NR { tree[$1]=$2; next }
/block_rq_issue:/ {
  for (i = 1; i <= NF; i++) if ($i == "+") break
  if (i > NF || $(i-4) !~ /M/) next
  for (j=1;j<=NF;j++) if ($j ~ /^[0-9]+\.[0-9]+:$/) { t = $j+0; break }
  if (!t0) t0 = t
  p = $(i-1)*512; n = $(i+1)*512
  if (p >= 38797312 && p < 38797312+268435456) { l = p - 38797312 + 30408704; m = 0 }
  else if (p >= 307232768 && p < 307232768+268435456) { l = p - 307232768 + 30408704; m = 1 }
  else { l = -1 }
  ph = (PH ? FILENAME : ((t - t0 < 12) ? "metaphase" : "dataphase"))
  for (o = 0; o < n; o += 16384) {
    tr = (l >= 0 && ((l+o) in tree)) ? tree[l+o] : "?"
    c[ph" "tr" mirror"m]++
    if (seen[l+o]++) rep[ph" "tr]++
  }
}
END { for (k in c) print k, c[k]; for (k in rep) print "REREAD", k, rep[k] }
