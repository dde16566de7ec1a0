// Package gnnsim holds what the whole toolkit shares: its version, recorded
// in every result file so a dataset says which simulator produced it.
package gnnsim

// Version is the gnnsim release. Bump it whenever a model change alters
// simulated numbers, so cached datasets can be told apart.
const Version = "0.1.0"
