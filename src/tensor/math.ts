// Scalar functions JavaScript's Math lacks, precise to double rounding: the references rely on them.

const TWO_OVER_SQRT_PI = 1.1283791670955126;

/** The error function. Taylor series below |x| = 3, a continued fraction for erfc above. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  if (a >= 6) return Math.sign(x);
  if (a < 3) {
    // erf(x) = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
    let term = a;
    let sum = a;
    const a2 = a * a;
    for (let n = 1; n < 100; n++) {
      term *= -a2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return Math.sign(x) * TWO_OVER_SQRT_PI * sum;
  }
  // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + 1/2/(a + 1/(a + 3/2/(a + 2/(a + ...))))), evaluated bottom-up.
  let f = a;
  for (let k = 60; k >= 1; k--) f = a + (k / 2) / f;
  const erfc = Math.exp(-a * a) / Math.sqrt(Math.PI) / f;
  return Math.sign(x) * (1 - erfc);
}
