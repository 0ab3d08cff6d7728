// A test's own timeout only catches a hang: it is never a verdict on speed. A run that takes a minute on an idle
// machine takes five or more when other jobs saturate the cores (measured: mutant runs of 40–58 s idle met a
// 300 s limit when two full test runs shared 2 cores), so the guard is far above any run's time under load.

/** The timeout of a test that runs a whole conformance run (or a mutant's) and may only fail by its verdict. */
export const hangGuardMs = 15 * 60_000;
