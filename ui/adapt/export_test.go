package adapt

// ByKey is byKey for the tests.
var ByKey = byKey
