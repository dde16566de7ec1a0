//go:build amd64 && !purego

#include "textflag.h"

// func GatherAxpyAVX2(dst, c []float64, cs int, idx []int32, x []float64, stride int)
// dst[t] = sum over e < len(idx) of c[e*cs] * x[idx[e]*stride+t], for
// t < len(dst), summed as AxpyZeroAVX2 for e = 0 and AxpyAVX2 for each
// later e would (the product rounded, then added, in the order of e),
// with dst held in registers: 16 columns at a time, then 4, then 1.
// len(idx) >= 1; the caller guarantees every index is in range.
//
// Register use: DI dst, SI &x[t] of the chunk, CX columns left, R14 c,
// R13 cs in bytes, R15 idx, R10 len(idx), R12 stride in bytes; R8 (c of
// the term), R9 (idx of the term), R11 (terms left) and AX (&x row) per
// chunk.
// ROWADDR sets AX to &x[idx[e]*stride + t] for the term R9 points at.
#define ROWADDR \
	MOVLQSX (R9), AX; \
	IMULQ   R12, AX; \
	ADDQ    SI, AX

TEXT ·GatherAxpyAVX2(SB), NOSPLIT, $0-112
	MOVQ   dst_base+0(FP), DI
	MOVQ   dst_len+8(FP), CX
	MOVQ   c_base+24(FP), R14
	MOVQ   cs+48(FP), R13
	SHLQ   $3, R13
	MOVQ   idx_base+56(FP), R15
	MOVQ   idx_len+64(FP), R10
	MOVQ   x_base+80(FP), SI
	MOVQ   stride+104(FP), R12
	SHLQ   $3, R12
	VXORPD Y15, Y15, Y15

chunk16:
	CMPQ         CX, $16
	JL           chunk4
	MOVQ         R14, R8
	MOVQ         R15, R9
	MOVQ         R10, R11
	ROWADDR
	VBROADCASTSD (R8), Y0
	VMULPD       (AX), Y0, Y1
	VMULPD       32(AX), Y0, Y2
	VMULPD       64(AX), Y0, Y3
	VMULPD       96(AX), Y0, Y4
	VADDPD       Y15, Y1, Y1
	VADDPD       Y15, Y2, Y2
	VADDPD       Y15, Y3, Y3
	VADDPD       Y15, Y4, Y4
	DECQ         R11
	JZ           store16

terms16:
	ADDQ         R13, R8
	ADDQ         $4, R9
	ROWADDR
	VBROADCASTSD (R8), Y0
	VMULPD       (AX), Y0, Y5
	VMULPD       32(AX), Y0, Y6
	VMULPD       64(AX), Y0, Y7
	VMULPD       96(AX), Y0, Y8
	VADDPD       Y1, Y5, Y1
	VADDPD       Y2, Y6, Y2
	VADDPD       Y3, Y7, Y3
	VADDPD       Y4, Y8, Y4
	DECQ         R11
	JNZ          terms16

store16:
	VMOVUPD Y1, (DI)
	VMOVUPD Y2, 32(DI)
	VMOVUPD Y3, 64(DI)
	VMOVUPD Y4, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, SI
	SUBQ    $16, CX
	JMP     chunk16

chunk4:
	CMPQ         CX, $4
	JL           chunk1
	MOVQ         R14, R8
	MOVQ         R15, R9
	MOVQ         R10, R11
	ROWADDR
	VBROADCASTSD (R8), Y0
	VMULPD       (AX), Y0, Y1
	VADDPD       Y15, Y1, Y1
	DECQ         R11
	JZ           store4

terms4:
	ADDQ         R13, R8
	ADDQ         $4, R9
	ROWADDR
	VBROADCASTSD (R8), Y0
	VMULPD       (AX), Y0, Y5
	VADDPD       Y1, Y5, Y1
	DECQ         R11
	JNZ          terms4

store4:
	VMOVUPD Y1, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	SUBQ    $4, CX
	JMP     chunk4

chunk1:
	CMPQ    CX, $1
	JL      done
	MOVQ    R14, R8
	MOVQ    R15, R9
	MOVQ    R10, R11
	ROWADDR
	VMOVSD  (AX), X1
	VMULSD  (R8), X1, X1
	VADDSD  X15, X1, X1
	DECQ    R11
	JZ      store1

terms1:
	ADDQ    R13, R8
	ADDQ    $4, R9
	ROWADDR
	VMOVSD  (AX), X5
	VMULSD  (R8), X5, X5
	VADDSD  X1, X5, X1
	DECQ    R11
	JNZ     terms1

store1:
	VMOVSD X1, (DI)
	ADDQ   $8, DI
	ADDQ   $8, SI
	DECQ   CX
	JMP    chunk1

done:
	VZEROUPPER
	RET
