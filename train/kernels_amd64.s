//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 forms of two kernels of kernels.go. Each multiplies and adds
// separately (no FMA), element by element in the order the Go code does,
// so the results are the same bits as the scalar loops'.

// func axpyAVX2(dst []float64, a float64, x []float64)
// dst[i] += a*x[i] for i < len(dst); len(x) >= len(dst).
TEXT ·axpyAVX2(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+32(FP), SI
	VBROADCASTSD a+24(FP), Y0
	XORQ         AX, AX
	MOVQ         CX, DX
	ANDQ         $-16, DX
	JZ           tail4

loop16:
	VMULPD  (SI)(AX*8), Y0, Y1
	VMULPD  32(SI)(AX*8), Y0, Y2
	VMULPD  64(SI)(AX*8), Y0, Y3
	VMULPD  96(SI)(AX*8), Y0, Y4
	VADDPD  (DI)(AX*8), Y1, Y1
	VADDPD  32(DI)(AX*8), Y2, Y2
	VADDPD  64(DI)(AX*8), Y3, Y3
	VADDPD  96(DI)(AX*8), Y4, Y4
	VMOVUPD Y1, (DI)(AX*8)
	VMOVUPD Y2, 32(DI)(AX*8)
	VMOVUPD Y3, 64(DI)(AX*8)
	VMOVUPD Y4, 96(DI)(AX*8)
	ADDQ    $16, AX
	CMPQ    AX, DX
	JL      loop16

tail4:
	MOVQ CX, DX
	ANDQ $-4, DX
	CMPQ AX, DX
	JGE  tail1

loop4:
	VMULPD  (SI)(AX*8), Y0, Y1
	VADDPD  (DI)(AX*8), Y1, Y1
	VMOVUPD Y1, (DI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, DX
	JL      loop4

tail1:
	CMPQ AX, CX
	JGE  done

loop1:
	VMOVSD (SI)(AX*8), X1
	VMULSD X0, X1, X1
	VADDSD (DI)(AX*8), X1, X1
	VMOVSD X1, (DI)(AX*8)
	INCQ   AX
	CMPQ   AX, CX
	JL     loop1

done:
	VZEROUPPER
	RET

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
// (s1 + s3).
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
