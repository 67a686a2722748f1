package core

// CheckInvariants lets the tests of package core_test check a queue as the
// property tests do: it returns the first invariant of the package
// documentation the queue breaks, or nil.
var CheckInvariants = checkInvariants
