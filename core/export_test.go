package core

// CheckInvariants lets the tests of package core_test check a queue after
// every operation (conformance_test.go runs it through the whole
// conformance suite): it returns the first invariant of the package
// documentation the queue breaks, or nil.
var CheckInvariants = checkInvariants
