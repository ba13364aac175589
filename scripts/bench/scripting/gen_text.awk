# Writes about BYTES bytes of text to standard output: lines of 6 to 14
# words drawn from a vocabulary of 20,000 made-up words with a Zipf-like
# skew (a few words very often, most rarely), by a fixed multiplicative congruential
# generator, so every run makes the same text.
#   awk -v BYTES=10000000 -f gen_text.awk > text.txt
BEGIN {
  seed = 12345
  letters = "etaoinshrdlucmfwypvbgkjqxz"
  for (i = 0; i < 20000; i++) {
    w = ""
    n = 2 + rnd() % 7
    for (k = 0; k < n; k++) w = w substr(letters, 1 + int((rnd() % 676) ^ 0.5), 1)
    vocab[i] = w
  }
  written = 0
  while (written < BYTES) {
    line = ""
    words = 6 + rnd() % 9
    for (k = 0; k < words; k++) {
      r = rnd() % 1000000
      idx = int(20000 * (r / 1000000) ^ 3)  # the cube skews toward the first words
      line = line (k ? " " : "") vocab[idx]
    }
    print line
    written += length(line) + 1
  }
}
# Park and Miller's minimal standard generator: the product stays below
# 2^53, exact in awk's doubles.
function rnd() {
  seed = (seed * 16807) % 2147483647
  return seed
}
