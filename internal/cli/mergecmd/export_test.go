package mergecmd

// The package's own names its external tests use.
const MaxShardLine = maxShardLine

var Percent = percent
