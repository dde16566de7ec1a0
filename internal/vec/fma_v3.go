//go:build amd64.v3

package vec

// goFusesFMA: at GOAMD64=v3 and above the Go compiler may fuse x*y + z
// into one FMA (cmd/compile's AMD64.rules), in math.Tanh as anywhere.
const goFusesFMA = true
