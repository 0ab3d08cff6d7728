// The id of the stateful walks' check (conformance/suites/rest/walks/check.ts), written here with the other REST check ids so
// that an id seen in a report can be found with grep.
export const restWalksId = "rest-walks";
