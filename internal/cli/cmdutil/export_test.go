package cmdutil

// The package's own names its external tests use.
const MaxInputLimit = maxInputLimit
const MemPerInputByte = memPerInputByte
const MinMaxInput = minMaxInput

var Decompress = decompress
var DefaultMaxInput = defaultMaxInput
