// Package cliflag holds the flag values every gnnsim command shares, and
// the checks behind them: integers and floats with an allowed range
// (stated in --help, refused while the command line is parsed, before any
// work starts), comma-separated lists that refuse empty and repeated
// entries, and output paths checked for writability. Explain turns a flag
// parsing error into a message in the user's terms; Cut and CutMessage
// keep a huge piece of user input from being echoed whole.
//
// It builds on pflag only: the command tree (cobra) stays in cmd/gnnsim.
// It leaves out every domain check (a value that parses but makes no sense
// for a model is the model package's to refuse).
package cliflag
