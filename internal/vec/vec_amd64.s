//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 kernels of vec.go. Each multiplies and adds separately (no
// FMA), so the results are the same bits as gonum's SSE2 kernels'.

// func AxpyAVX2(dst []float64, a float64, x []float64)
// dst[i] += a*x[i] for i < len(dst); len(x) >= len(dst).
TEXT ·AxpyAVX2(SB), NOSPLIT, $0-56
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

// func AxpyZeroAVX2(dst []float64, a float64, x []float64)
// dst[i] = a*x[i] + 0 for i < len(dst); len(x) >= len(dst): axpy on a
// cleared dst (the +0 turns a product of -0 into +0, as there), without
// clearing or reading dst.
TEXT ·AxpyZeroAVX2(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+32(FP), SI
	VBROADCASTSD a+24(FP), Y0
	VXORPD       Y15, Y15, Y15
	XORQ         AX, AX
	MOVQ         CX, DX
	ANDQ         $-16, DX
	JZ           ztail4

zloop16:
	VMULPD  (SI)(AX*8), Y0, Y1
	VMULPD  32(SI)(AX*8), Y0, Y2
	VMULPD  64(SI)(AX*8), Y0, Y3
	VMULPD  96(SI)(AX*8), Y0, Y4
	VADDPD  Y15, Y1, Y1
	VADDPD  Y15, Y2, Y2
	VADDPD  Y15, Y3, Y3
	VADDPD  Y15, Y4, Y4
	VMOVUPD Y1, (DI)(AX*8)
	VMOVUPD Y2, 32(DI)(AX*8)
	VMOVUPD Y3, 64(DI)(AX*8)
	VMOVUPD Y4, 96(DI)(AX*8)
	ADDQ    $16, AX
	CMPQ    AX, DX
	JL      zloop16

ztail4:
	MOVQ CX, DX
	ANDQ $-4, DX
	CMPQ AX, DX
	JGE  ztail1

zloop4:
	VMULPD  (SI)(AX*8), Y0, Y1
	VADDPD  Y15, Y1, Y1
	VMOVUPD Y1, (DI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, DX
	JL      zloop4

ztail1:
	CMPQ AX, CX
	JGE  zdone

zloop1:
	VMOVSD (SI)(AX*8), X1
	VMULSD X0, X1, X1
	VADDSD X15, X1, X1
	VMOVSD X1, (DI)(AX*8)
	INCQ   AX
	CMPQ   AX, CX
	JL     zloop1

zdone:
	VZEROUPPER
	RET

// DOTFIN finishes one column's dot in gonum's DotUnitary order: accx
// holds [s0 + tail, s1] and hi [s2, s3]; it forms (s0 + s2) + (s1 + s3),
// multiplies it by mask[c] for c = idx[AX+pos] and stores it to dx[c].
// X8 and R9 are scratch.
#define DOTFIN(accx, hi, pos) \
	VADDPD    hi, accx, accx; \
	VUNPCKHPD accx, accx, X8; \
	VADDSD    X8, accx, accx; \
	MOVLQSX   pos(R13)(AX*4), R9; \
	VMULSD    (R12)(R9*8), accx, accx; \
	VMOVSD    accx, (DI)(R9*8)

// COLPTR sets reg to &w[c*m] for c = idx[AX+pos].
#define COLPTR(reg, pos) \
	MOVLQSX pos(R13)(AX*4), reg; \
	IMULQ   DX, reg; \
	LEAQ    (R8)(reg*8), reg

// func DotsKeptAVX2(dx, mask, dz, w []float64, idx []int32, m int)
// For the columns c = idx[i], i < len(idx) &^ 3: dx[c] = mask[c] *
// dot(dz[:m], w[c*m:(c+1)*m]), each dot in the order of gonum's
// DotUnitary (floats.Dot): four partial sums over t mod 4 (the lanes of
// one vector) for the first m &^ 3 terms, the rest added to the first,
// then (s0 + s2) + (s1 + s3). Four columns at a time, each reading its
// row of w whole: it computes only the listed columns, from w
// untransposed.
TEXT ·DotsKeptAVX2(SB), NOSPLIT, $0-128
	MOVQ dx_base+0(FP), DI
	MOVQ mask_base+24(FP), R12
	MOVQ dz_base+48(FP), SI
	MOVQ w_base+72(FP), R8
	MOVQ idx_base+96(FP), R13
	MOVQ idx_len+104(FP), CX
	MOVQ m+120(FP), DX
	ANDQ $-4, CX
	MOVQ DX, R11
	ANDQ $-4, R11
	XORQ AX, AX

kcol:
	CMPQ   AX, CX
	JGE    kdone
	COLPTR(R10, 0)
	COLPTR(BX, 4)
	COLPTR(R14, 8)
	COLPTR(R15, 12)
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   R9, R9

kquad:
	CMPQ    R9, R11
	JGE     ktail
	VMOVUPD (SI)(R9*8), Y8
	VMULPD  (R10)(R9*8), Y8, Y4
	VMULPD  (BX)(R9*8), Y8, Y5
	VMULPD  (R14)(R9*8), Y8, Y6
	VMULPD  (R15)(R9*8), Y8, Y7
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	ADDQ    $4, R9
	JMP     kquad

ktail:
	VEXTRACTF128 $1, Y0, X4
	VEXTRACTF128 $1, Y1, X5
	VEXTRACTF128 $1, Y2, X6
	VEXTRACTF128 $1, Y3, X7

ktail1:
	CMPQ   R9, DX
	JGE    kfin
	VMOVSD (SI)(R9*8), X9
	VMULSD (R10)(R9*8), X9, X10
	VADDSD X10, X0, X0
	VMULSD (BX)(R9*8), X9, X10
	VADDSD X10, X1, X1
	VMULSD (R14)(R9*8), X9, X10
	VADDSD X10, X2, X2
	VMULSD (R15)(R9*8), X9, X10
	VADDSD X10, X3, X3
	INCQ   R9
	JMP    ktail1

kfin:
	DOTFIN(X0, X4, 0)
	DOTFIN(X1, X5, 4)
	DOTFIN(X2, X6, 8)
	DOTFIN(X3, X7, 12)
	ADDQ $4, AX
	JMP  kcol

kdone:
	VZEROUPPER
	RET
