// Package plot is the plumbing under gnnsim's figures (gonum.org/v1/plot):
// writing a grid of plots as PNG and SVG with a white background and an
// overall title, tick marks at round numbers, and a colour-blind-safe
// palette. What a figure shows is its seed package's business (repro/seed002's
// figures are drawn there).
//
// Left out: interactive output, PDF, and fonts other than gonum/plot's
// default Liberation set.
package plot
