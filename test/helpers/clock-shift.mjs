// Preloaded (`node --import`) into a service process a test runs: shifts its clock (Date.now)
// by TEST_CLOCK_SHIFT_MS, as a clock stepped back (negative) or forward would.
const shift = Number(process.env.TEST_CLOCK_SHIFT_MS ?? 0);
if (shift) {
  const real = Date.now;
  Date.now = () => real() + shift;
}
