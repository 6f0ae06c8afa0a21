# Writes the held-out series of bench/ensemble-study.ts (20 series of R's `datasets` and, when installed,
# `forecast` packages that datasets/ does not ship) to /tmp/rdata/datasets/classic_series.csv, in the shipped
# file's long format. Then: npx tsx bench/ensemble-study.ts --root /tmp/rdata
# (Debian: apt-get install r-base-core r-cran-forecast). The data stay out of the repository.
dir.create("/tmp/rdata/datasets", recursive = TRUE, showWarnings = FALSE)
out <- list()
add <- function(id, x) {
  x <- as.ts(x); f <- frequency(x); t <- as.numeric(time(x))
  yr <- floor(t + 1e-9)
  if (f == 12) { mo <- round((t - yr) * 12) + 1; d <- sprintf("%04d-%02d-01", yr, mo) }
  else if (f == 4) { q <- round((t - yr) * 4); d <- sprintf("%04d-%02d-01", yr, q * 3 + 1) }
  else { d <- sprintf("%04d-01-01", 1800 + seq_along(t)) }
  v <- ifelse(is.na(x), "", format(as.numeric(x), digits = 10, trim = TRUE))
  out[[id]] <<- data.frame(id = id, timestamp = d, value = v)
}
add("fdeaths", fdeaths); add("mdeaths", mdeaths)
sb <- Seatbelts; add("sb_front", sb[, "front"]); add("sb_rear", sb[, "rear"]); add("sb_VanKilled", sb[, "VanKilled"]); add("sb_kms", sb[, "kms"])
add("sunspots_recent", window(sunspots, start = c(1963, 1)))
add("presidents", presidents); add("freeny_y", freeny.y)
add("sunspot.year", sunspot.year); add("discoveries", discoveries); add("nhtemp", nhtemp); add("airmiles", airmiles)
add("treering_recent", ts(tail(as.numeric(treering), 150))); add("BJsales", BJsales); add("WWWusage", WWWusage); add("lh", lh)
if (requireNamespace("forecast", quietly = TRUE)) { library(forecast); add("gas", gas); add("wineind", wineind); add("woolyrnq", woolyrnq) }
df <- do.call(rbind, out)
write.csv(df, "/tmp/rdata/datasets/classic_series.csv", row.names = FALSE, quote = FALSE)
cat(nrow(df), "rows", length(out), "series\n")
