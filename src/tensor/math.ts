// Scalar functions JavaScript's Math lacks, precise to about 1e-13: the references rely on them.
// Each function is self-contained (constants inside, no outside references) because the expression
// compiler embeds their source text in generated kernels.

/** The error function: its Taylor series below |x| = 2.5, a continued fraction for erfc above. */
export function erf(x: number): number {
  if (Number.isNaN(x) || x === 0) return x; // keeps the sign of zero: erf(-0) = -0
  const a = Math.abs(x);
  if (a >= 6) return x > 0 ? 1 : -1;
  if (a < 2.5) {
    // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
    let term = a;
    let sum = a;
    const a2 = a * a;
    for (let n = 1; n < 200; n++) {
      term *= -a2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    const r = 1.1283791670955126 * sum; // 2 / sqrt(pi)
    return x < 0 ? -r : r;
  }
  // erfc(a) = exp(-a^2) / sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + 2/(a + ...))))), evaluated bottom-up.
  let f = a;
  for (let k = 80; k >= 1; k--) f = a + k / 2 / f;
  const r = 1 - Math.exp(-a * a) / 1.7724538509055159 / f; // sqrt(pi)
  return x < 0 ? -r : r;
}
