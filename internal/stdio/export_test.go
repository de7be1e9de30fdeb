package stdio

// IDKey is idKey, for the fuzz oracle's matching of cancellations to requests (idKey
// itself is checked against an exact-arithmetic oracle by FuzzIDKey).
var IDKey = idKey
