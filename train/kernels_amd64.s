//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 forms of the kernels of kernels.go. Each multiplies and adds
// separately (no FMA), element by element in the order the Go code does,
// so the results are the same bits as the scalar loops'.

// func adamAVX2(p, g, m1, m2 []float64, k *[8]float64)
// One Adam step on the first len(p) &^ 3 elements; k holds beta1,
// 1-beta1, beta2, 1-beta2, lr, c1, c2, eps as adamStep uses them.
TEXT ·adamAVX2(SB), NOSPLIT, $0-104
	MOVQ         p_base+0(FP), DI
	MOVQ         p_len+8(FP), CX
	MOVQ         g_base+24(FP), SI
	MOVQ         m1_base+48(FP), R8
	MOVQ         m2_base+72(FP), R9
	MOVQ         k+96(FP), R10
	VBROADCASTSD 0(R10), Y8
	VBROADCASTSD 8(R10), Y9
	VBROADCASTSD 16(R10), Y10
	VBROADCASTSD 24(R10), Y11
	VBROADCASTSD 32(R10), Y12
	VBROADCASTSD 40(R10), Y13
	VBROADCASTSD 48(R10), Y14
	VBROADCASTSD 56(R10), Y15
	ANDQ         $-4, CX
	XORQ         AX, AX
	CMPQ         AX, CX
	JGE          adamdone

adamloop:
	VMOVUPD (SI)(AX*8), Y0     // g
	VMULPD  (R8)(AX*8), Y8, Y1 // beta1*m1
	VMULPD  Y0, Y9, Y2         // (1-beta1)*g
	VADDPD  Y2, Y1, Y1         // m1
	VMOVUPD Y1, (R8)(AX*8)
	VMULPD  (R9)(AX*8), Y10, Y3 // beta2*m2
	VMULPD  Y0, Y11, Y4         // (1-beta2)*g
	VMULPD  Y0, Y4, Y4          // ((1-beta2)*g)*g
	VADDPD  Y4, Y3, Y3          // m2
	VMOVUPD Y3, (R9)(AX*8)
	VDIVPD  Y13, Y1, Y1         // m1/c1
	VMULPD  Y1, Y12, Y1         // lr*(m1/c1)
	VDIVPD  Y14, Y3, Y3         // m2/c2
	VSQRTPD Y3, Y3
	VADDPD  Y15, Y3, Y3         // sqrt(m2/c2)+eps
	VDIVPD  Y3, Y1, Y1          // the step
	VMOVUPD (DI)(AX*8), Y2
	VSUBPD  Y1, Y2, Y2          // p - step
	VMOVUPD Y2, (DI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, CX
	JL      adamloop

adamdone:
	VZEROUPPER
	RET

// func mulRowAVX2(z, x, w []float64, m int, mask *[16]int64)
// z[j] = sum over c of x[c]*w[c*m+j], for the columns j < 16 whose mask
// entry is -1 (the others are not touched), summed in the order of c from
// +0, a term with x[c] == 0 counted as +0: the same bits as a loop that
// skips those terms. w is read at w[c*m+j] for the masked-in j only.
TEXT ·mulRowAVX2(SB), NOSPLIT, $0-88
	MOVQ   z_base+0(FP), DI
	MOVQ   x_base+24(FP), SI
	MOVQ   x_len+32(FP), CX
	MOVQ   w_base+48(FP), R8
	MOVQ   m+72(FP), R9
	SHLQ   $3, R9
	MOVQ   mask+80(FP), R10
	VMOVDQU 0(R10), Y12
	VMOVDQU 32(R10), Y13
	VMOVDQU 64(R10), Y14
	VMOVDQU 96(R10), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y9, Y9, Y9
	XORQ   AX, AX

rowloop:
	CMPQ AX, CX
	JGE  rowstore
	VBROADCASTSD (SI)(AX*8), Y8
	VCMPPD       $4, Y9, Y8, Y10 // x[c] != 0
	VMASKMOVPD   0(R8), Y12, Y4
	VMASKMOVPD   32(R8), Y13, Y5
	VMASKMOVPD   64(R8), Y14, Y6
	VMASKMOVPD   96(R8), Y15, Y7
	VMULPD       Y8, Y4, Y4
	VMULPD       Y8, Y5, Y5
	VMULPD       Y8, Y6, Y6
	VMULPD       Y8, Y7, Y7
	VANDPD       Y10, Y4, Y4
	VANDPD       Y10, Y5, Y5
	VANDPD       Y10, Y6, Y6
	VANDPD       Y10, Y7, Y7
	VADDPD       Y4, Y0, Y0
	VADDPD       Y5, Y1, Y1
	VADDPD       Y6, Y2, Y2
	VADDPD       Y7, Y3, Y3
	ADDQ         R9, R8
	INCQ         AX
	JMP          rowloop

rowstore:
	VMASKMOVPD Y0, Y12, 0(DI)
	VMASKMOVPD Y1, Y13, 32(DI)
	VMASKMOVPD Y2, Y14, 64(DI)
	VMASKMOVPD Y3, Y15, 96(DI)
	VZEROUPPER
	RET

// MASKED stores mask*acc at off(DI)(AX*8) where the mask (at off(R12)(AX*8))
// is not zero, else the mask itself: matMulNT's dropout of the input
// gradient. Y15 holds zeros; Y9 and Y10 are scratch.
#define MASKED(acc, off) \
	VMOVUPD   off(R12)(AX*8), Y9; \
	VCMPPD    $4, Y15, Y9, Y10; \
	VMULPD    Y9, acc, acc; \
	VBLENDVPD Y10, acc, Y9, acc; \
	VMOVUPD   acc, off(DI)(AX*8)

// func dotsSeqAVX2(dx, mask, dz, wT []float64, k int)
// For c < len(dx), a multiple of 4: dx[c] = mask[c] * (sum over t <
// len(dz) of dz[t]*wT[t*k+c]) where mask[c] != 0, else mask[c]; each sum
// from +0 in the order of t, as dot's Go loop; four or sixteen columns c
// at a time.
TEXT ·dotsSeqAVX2(SB), NOSPLIT, $0-104
	MOVQ   dx_base+0(FP), DI
	MOVQ   dx_len+8(FP), CX
	MOVQ   mask_base+24(FP), R12
	MOVQ   dz_base+48(FP), SI
	MOVQ   dz_len+56(FP), DX
	MOVQ   wT_base+72(FP), R8
	MOVQ   k+96(FP), R9
	SHLQ   $3, R9
	VXORPD Y15, Y15, Y15
	XORQ   AX, AX
	MOVQ   CX, R11
	ANDQ   $-16, R11

seq16:
	CMPQ   AX, R11
	JGE    seq4
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	LEAQ   (R8)(AX*8), R10
	XORQ   BX, BX

seq16t:
	CMPQ         BX, DX
	JGE          seq16s
	VBROADCASTSD (SI)(BX*8), Y8
	VMULPD       0(R10), Y8, Y4
	VMULPD       32(R10), Y8, Y5
	VMULPD       64(R10), Y8, Y6
	VMULPD       96(R10), Y8, Y7
	VADDPD       Y4, Y0, Y0
	VADDPD       Y5, Y1, Y1
	VADDPD       Y6, Y2, Y2
	VADDPD       Y7, Y3, Y3
	ADDQ         R9, R10
	INCQ         BX
	JMP          seq16t

seq16s:
	MASKED(Y0, 0)
	MASKED(Y1, 32)
	MASKED(Y2, 64)
	MASKED(Y3, 96)
	ADDQ $16, AX
	JMP  seq16

seq4:
	CMPQ   AX, CX
	JGE    seqdone
	VXORPD Y0, Y0, Y0
	LEAQ   (R8)(AX*8), R10
	XORQ   BX, BX

seq4t:
	CMPQ         BX, DX
	JGE          seq4s
	VBROADCASTSD (SI)(BX*8), Y8
	VMULPD       0(R10), Y8, Y4
	VADDPD       Y4, Y0, Y0
	ADDQ         R9, R10
	INCQ         BX
	JMP          seq4t

seq4s:
	MASKED(Y0, 0)
	ADDQ $4, AX
	JMP  seq4

seqdone:
	VZEROUPPER
	RET

// func dotsGonumAVX2(dx, mask, dz, wT []float64, k int)
// As dotsSeqAVX2, but each sum in the order of gonum's DotUnitary (the
// SSE2 kernel floats.Dot runs): four partial sums over t mod 4 for the
// first len(dz) &^ 3 terms, the rest added to the first, then (s0 + s2) +
// (s1 + s3); eight columns c at a time (the broadcasts of dz serve both
// sets of sums), then four.
TEXT ·dotsGonumAVX2(SB), NOSPLIT, $0-104
	MOVQ   dx_base+0(FP), DI
	MOVQ   dx_len+8(FP), CX
	MOVQ   mask_base+24(FP), R12
	MOVQ   dz_base+48(FP), SI
	MOVQ   dz_len+56(FP), DX
	MOVQ   wT_base+72(FP), R8
	MOVQ   k+96(FP), R9
	SHLQ   $3, R9
	VXORPD Y15, Y15, Y15
	MOVQ   DX, R11
	ANDQ   $-4, R11
	XORQ   AX, AX
	MOVQ   CX, R13
	ANDQ   $-8, R13

	// Eight columns at a time (two sets of four partial sums), each
	// broadcast of dz serving both.
g8col:
	CMPQ   AX, R13
	JGE    gcol
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	LEAQ   (R8)(AX*8), R10
	XORQ   BX, BX

g8quad:
	CMPQ         BX, R11
	JGE          g8tail
	VBROADCASTSD 0(SI)(BX*8), Y8
	VBROADCASTSD 8(SI)(BX*8), Y9
	VBROADCASTSD 16(SI)(BX*8), Y10
	VBROADCASTSD 24(SI)(BX*8), Y11
	VMULPD       (R10), Y8, Y12
	VMULPD       32(R10), Y8, Y13
	VADDPD       Y12, Y0, Y0
	VADDPD       Y13, Y4, Y4
	ADDQ         R9, R10
	VMULPD       (R10), Y9, Y12
	VMULPD       32(R10), Y9, Y13
	VADDPD       Y12, Y1, Y1
	VADDPD       Y13, Y5, Y5
	ADDQ         R9, R10
	VMULPD       (R10), Y10, Y12
	VMULPD       32(R10), Y10, Y13
	VADDPD       Y12, Y2, Y2
	VADDPD       Y13, Y6, Y6
	ADDQ         R9, R10
	VMULPD       (R10), Y11, Y12
	VMULPD       32(R10), Y11, Y13
	VADDPD       Y12, Y3, Y3
	VADDPD       Y13, Y7, Y7
	ADDQ         R9, R10
	ADDQ         $4, BX
	JMP          g8quad

g8tail:
	CMPQ         BX, DX
	JGE          g8sum
	VBROADCASTSD (SI)(BX*8), Y8
	VMULPD       (R10), Y8, Y12
	VMULPD       32(R10), Y8, Y13
	VADDPD       Y12, Y0, Y0
	VADDPD       Y13, Y4, Y4
	ADDQ         R9, R10
	INCQ         BX
	JMP          g8tail

g8sum:
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	VADDPD Y6, Y4, Y4
	VADDPD Y7, Y5, Y5
	VADDPD Y5, Y4, Y4
	MASKED(Y0, 0)
	MASKED(Y4, 32)
	ADDQ   $8, AX
	JMP    g8col

gcol:
	CMPQ   AX, CX
	JGE    gdone
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	LEAQ   (R8)(AX*8), R10
	XORQ   BX, BX

gquad:
	CMPQ         BX, R11
	JGE          gtail
	VBROADCASTSD 0(SI)(BX*8), Y4
	VBROADCASTSD 8(SI)(BX*8), Y5
	VBROADCASTSD 16(SI)(BX*8), Y6
	VBROADCASTSD 24(SI)(BX*8), Y7
	VMULPD       (R10), Y4, Y4
	ADDQ         R9, R10
	VMULPD       (R10), Y5, Y5
	ADDQ         R9, R10
	VMULPD       (R10), Y6, Y6
	ADDQ         R9, R10
	VMULPD       (R10), Y7, Y7
	ADDQ         R9, R10
	VADDPD       Y4, Y0, Y0
	VADDPD       Y5, Y1, Y1
	VADDPD       Y6, Y2, Y2
	VADDPD       Y7, Y3, Y3
	ADDQ         $4, BX
	JMP          gquad

gtail:
	CMPQ         BX, DX
	JGE          gsum
	VBROADCASTSD (SI)(BX*8), Y4
	VMULPD       (R10), Y4, Y4
	VADDPD       Y4, Y0, Y0
	ADDQ         R9, R10
	INCQ         BX
	JMP          gtail

gsum:
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	MASKED(Y0, 0)
	ADDQ   $4, AX
	JMP    gcol

gdone:
	VZEROUPPER
	RET

// ROW2ADD adds x0[c]*w and x1[c]*w (Y8, Y9: broadcast) for one vector
// of w (wv) into the sums a0 (row 0) and a1 (row 1); Y11, Y12 scratch.
#define ROW2ADD(wv, a0, a1) \
	VMULPD Y8, wv, Y11; \
	VMULPD Y9, wv, Y12; \
	VADDPD Y11, a0, a0; \
	VADDPD Y12, a1, a1

// func mulRow2AVX2(z0, z1, x0, x1, w []float64, m, fast int, mask *[16]int64)
// mulRowAVX2 for two rows at once (z0 from x0, z1 from x1, of equal
// length), with every term added, zero or not: the caller has checked
// that w is finite, so a zero term is x[c]*w = ±0, which leaves a sum
// begun at +0 unchanged (such a sum is never -0), the same bits as a
// loop that skips it. Terms c < fast load w's vectors whole (the caller
// has checked they lie inside w); later ones load the masked-in columns
// only.
TEXT ·mulRow2AVX2(SB), NOSPLIT, $0-144
	MOVQ   z0_base+0(FP), DI
	MOVQ   z1_base+24(FP), DX
	MOVQ   x0_base+48(FP), SI
	MOVQ   x0_len+56(FP), CX
	MOVQ   x1_base+72(FP), BX
	MOVQ   w_base+96(FP), R8
	MOVQ   m+120(FP), R9
	SHLQ   $3, R9
	MOVQ   fast+128(FP), R11
	MOVQ   mask+136(FP), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   AX, AX

r2fast:
	CMPQ         AX, R11
	JGE          r2slow
	VBROADCASTSD (SI)(AX*8), Y8
	VBROADCASTSD (BX)(AX*8), Y9
	VMOVUPD      0(R8), Y10
	VMOVUPD      32(R8), Y13
	ROW2ADD(Y10, Y0, Y4)
	ROW2ADD(Y13, Y1, Y5)
	VMOVUPD      64(R8), Y10
	VMOVUPD      96(R8), Y13
	ROW2ADD(Y10, Y2, Y6)
	ROW2ADD(Y13, Y3, Y7)
	ADDQ         R9, R8
	INCQ         AX
	JMP          r2fast

r2slow:
	CMPQ         AX, CX
	JGE          r2store
	VBROADCASTSD (SI)(AX*8), Y8
	VBROADCASTSD (BX)(AX*8), Y9
	VMOVDQU      0(R10), Y14
	VMASKMOVPD   0(R8), Y14, Y10
	VMOVDQU      32(R10), Y15
	VMASKMOVPD   32(R8), Y15, Y13
	ROW2ADD(Y10, Y0, Y4)
	ROW2ADD(Y13, Y1, Y5)
	VMOVDQU      64(R10), Y14
	VMASKMOVPD   64(R8), Y14, Y10
	VMOVDQU      96(R10), Y15
	VMASKMOVPD   96(R8), Y15, Y13
	ROW2ADD(Y10, Y2, Y6)
	ROW2ADD(Y13, Y3, Y7)
	ADDQ         R9, R8
	INCQ         AX
	JMP          r2slow

r2store:
	VMOVDQU    0(R10), Y12
	VMOVDQU    32(R10), Y13
	VMOVDQU    64(R10), Y14
	VMOVDQU    96(R10), Y15
	VMASKMOVPD Y0, Y12, 0(DI)
	VMASKMOVPD Y1, Y13, 32(DI)
	VMASKMOVPD Y2, Y14, 64(DI)
	VMASKMOVPD Y3, Y15, 96(DI)
	VMASKMOVPD Y4, Y12, 0(DX)
	VMASKMOVPD Y5, Y13, 32(DX)
	VMASKMOVPD Y6, Y14, 64(DX)
	VMASKMOVPD Y7, Y15, 96(DX)
	VZEROUPPER
	RET

// func maxRowAVX2(m []float64, arg []int32, z []float64, c float64, e int32)
// For every t < len(m): v = c*z[t]; where v > m[t] (ordered: not for a
// NaN), m[t] = v and arg[t] = e. One edge of Max aggregation, as the Go
// loop, four columns at a time without a branch.
TEXT ·maxRowAVX2(SB), NOSPLIT, $0-84
	MOVQ         m_base+0(FP), DI
	MOVQ         m_len+8(FP), CX
	MOVQ         arg_base+24(FP), R8
	MOVQ         z_base+48(FP), SI
	VBROADCASTSD c+72(FP), Y0
	MOVL         e+80(FP), R9
	VMOVD        R9, X1
	VPBROADCASTD X1, X1
	MOVQ         CX, DX
	ANDQ         $-4, DX
	XORQ         AX, AX

mxloop:
	CMPQ         AX, DX
	JGE          mxtail
	VMULPD       (SI)(AX*8), Y0, Y2 // v
	VMOVUPD      (DI)(AX*8), Y3     // m
	VCMPPD       $0x1E, Y3, Y2, Y4  // v > m
	VBLENDVPD    Y4, Y2, Y3, Y3
	VMOVUPD      Y3, (DI)(AX*8)
	VEXTRACTF128 $1, Y4, X5
	VSHUFPS      $0x88, X5, X4, X5 // the four masks as 32-bit lanes
	VMOVDQU      (R8)(AX*4), X6
	VPBLENDVB    X5, X1, X6, X6
	VMOVDQU      X6, (R8)(AX*4)
	ADDQ         $4, AX
	JMP          mxloop

mxtail:
	CMPQ     AX, CX
	JGE      mxdone
	VMOVSD   (SI)(AX*8), X2
	VMULSD   X0, X2, X2
	VUCOMISD (DI)(AX*8), X2
	JBE      mxnext // v <= m, or unordered
	VMOVSD   X2, (DI)(AX*8)
	MOVL     R9, (R8)(AX*4)

mxnext:
	INCQ AX
	JMP  mxtail

mxdone:
	VZEROUPPER
	RET
