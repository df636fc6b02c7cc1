// Package nodejs is the suite's byte-for-byte contract with the course's reference, a Node program:
// where a student compares our output with Node's, the answer is computed here, once. URLs as the
// WHATWG parser and encodeURIComponent write them, strings as JavaScript measures, trims and decodes
// them, numbers as Number() reads and String() writes them, dates as Date.parse reads them, and
// failed requests named by Node's error codes. JSON.parse and JSON.stringify are pkg/jsonjs, built on this package.
package nodejs
