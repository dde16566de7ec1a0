//go:build amd64 && !purego

#include "textflag.h"

// Four-lane forms of math.Exp and of the activations built on it. EXP4 is
// the FMA path of the Go runtime's math.Exp (math/exp_amd64.s, after
// Shibata's SLEEF method), the same operations in the same order on four
// lanes, so each lane is bitwise math.Exp of its input on a CPU where
// math.Exp takes that path (AVX and FMA; these kernels also need AVX2).
// It covers only inputs in [-708, 709], where math.Exp takes neither its
// overflow nor its denormal branch: each kernel stops at the first block
// of four with a lane outside that range (or NaN) and returns how many
// elements it did; the Go caller (ExpMapAVX2 in exp.go) does that block
// with the scalar function.

// The constants of math/exp_amd64.s, four copies each.
#define LOG2E expc<>+0(SB)
#define LN2U expc<>+32(SB)
#define LN2L expc<>+64(SB)
#define SIXTEENTH expc<>+96(SB)
#define C64 expc<>+128(SB)
#define C56 expc<>+160(SB)
#define C48 expc<>+192(SB)
#define C40 expc<>+224(SB)
#define C32 expc<>+256(SB)
#define C24 expc<>+288(SB)
#define HALF expc<>+320(SB)
#define ONE expc<>+352(SB)
#define TWO expc<>+384(SB)
#define LO expc<>+416(SB)
#define HI expc<>+448(SB)
#define BIAS expc<>+480(SB)
#define SIGN expc<>+512(SB)
#define ABS expc<>+544(SB)
#define TEDGE expc<>+576(SB)
#define HMAXLOG expc<>+608(SB)
#define TANHP0 expc<>+640(SB)
#define TANHP1 expc<>+672(SB)
#define TANHP2 expc<>+704(SB)
#define TANHQ0 expc<>+736(SB)
#define TANHQ1 expc<>+768(SB)
#define TANHQ2 expc<>+800(SB)

DATA expc<>+0(SB)/8, $1.4426950408889634073599246810018920
DATA expc<>+8(SB)/8, $1.4426950408889634073599246810018920
DATA expc<>+16(SB)/8, $1.4426950408889634073599246810018920
DATA expc<>+24(SB)/8, $1.4426950408889634073599246810018920
DATA expc<>+32(SB)/8, $0.69314718055966295651160180568695068359375
DATA expc<>+40(SB)/8, $0.69314718055966295651160180568695068359375
DATA expc<>+48(SB)/8, $0.69314718055966295651160180568695068359375
DATA expc<>+56(SB)/8, $0.69314718055966295651160180568695068359375
DATA expc<>+64(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA expc<>+72(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA expc<>+80(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA expc<>+88(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA expc<>+96(SB)/8, $0.0625
DATA expc<>+104(SB)/8, $0.0625
DATA expc<>+112(SB)/8, $0.0625
DATA expc<>+120(SB)/8, $0.0625
DATA expc<>+128(SB)/8, $2.4801587301587301587e-5
DATA expc<>+136(SB)/8, $2.4801587301587301587e-5
DATA expc<>+144(SB)/8, $2.4801587301587301587e-5
DATA expc<>+152(SB)/8, $2.4801587301587301587e-5
DATA expc<>+160(SB)/8, $1.9841269841269841270e-4
DATA expc<>+168(SB)/8, $1.9841269841269841270e-4
DATA expc<>+176(SB)/8, $1.9841269841269841270e-4
DATA expc<>+184(SB)/8, $1.9841269841269841270e-4
DATA expc<>+192(SB)/8, $1.3888888888888888889e-3
DATA expc<>+200(SB)/8, $1.3888888888888888889e-3
DATA expc<>+208(SB)/8, $1.3888888888888888889e-3
DATA expc<>+216(SB)/8, $1.3888888888888888889e-3
DATA expc<>+224(SB)/8, $8.3333333333333333333e-3
DATA expc<>+232(SB)/8, $8.3333333333333333333e-3
DATA expc<>+240(SB)/8, $8.3333333333333333333e-3
DATA expc<>+248(SB)/8, $8.3333333333333333333e-3
DATA expc<>+256(SB)/8, $4.1666666666666666667e-2
DATA expc<>+264(SB)/8, $4.1666666666666666667e-2
DATA expc<>+272(SB)/8, $4.1666666666666666667e-2
DATA expc<>+280(SB)/8, $4.1666666666666666667e-2
DATA expc<>+288(SB)/8, $1.6666666666666666667e-1
DATA expc<>+296(SB)/8, $1.6666666666666666667e-1
DATA expc<>+304(SB)/8, $1.6666666666666666667e-1
DATA expc<>+312(SB)/8, $1.6666666666666666667e-1
DATA expc<>+320(SB)/8, $0.5
DATA expc<>+328(SB)/8, $0.5
DATA expc<>+336(SB)/8, $0.5
DATA expc<>+344(SB)/8, $0.5
DATA expc<>+352(SB)/8, $1.0
DATA expc<>+360(SB)/8, $1.0
DATA expc<>+368(SB)/8, $1.0
DATA expc<>+376(SB)/8, $1.0
DATA expc<>+384(SB)/8, $2.0
DATA expc<>+392(SB)/8, $2.0
DATA expc<>+400(SB)/8, $2.0
DATA expc<>+408(SB)/8, $2.0
DATA expc<>+416(SB)/8, $-708.0
DATA expc<>+424(SB)/8, $-708.0
DATA expc<>+432(SB)/8, $-708.0
DATA expc<>+440(SB)/8, $-708.0
DATA expc<>+448(SB)/8, $709.0
DATA expc<>+456(SB)/8, $709.0
DATA expc<>+464(SB)/8, $709.0
DATA expc<>+472(SB)/8, $709.0
DATA expc<>+480(SB)/8, $0x3FF
DATA expc<>+488(SB)/8, $0x3FF
DATA expc<>+496(SB)/8, $0x3FF
DATA expc<>+504(SB)/8, $0x3FF
DATA expc<>+512(SB)/8, $0x8000000000000000
DATA expc<>+520(SB)/8, $0x8000000000000000
DATA expc<>+528(SB)/8, $0x8000000000000000
DATA expc<>+536(SB)/8, $0x8000000000000000

// math.Tanh's constants (math/tanh.go, from Cephes), as their float64
// bits, four copies each.
// |x|: all but the sign bit
DATA expc<>+544(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA expc<>+552(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA expc<>+560(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA expc<>+568(SB)/8, $0x7FFFFFFFFFFFFFFF
// 0.625: below it math.Tanh is rational
DATA expc<>+576(SB)/8, $0x3fe4000000000000
DATA expc<>+584(SB)/8, $0x3fe4000000000000
DATA expc<>+592(SB)/8, $0x3fe4000000000000
DATA expc<>+600(SB)/8, $0x3fe4000000000000
// 0.5*MAXLOG of math/tanh.go (MAXLOG = log(2**127)): above it ±1
DATA expc<>+608(SB)/8, $0x404601e678fc457b
DATA expc<>+616(SB)/8, $0x404601e678fc457b
DATA expc<>+624(SB)/8, $0x404601e678fc457b
DATA expc<>+632(SB)/8, $0x404601e678fc457b
// tanhP[0] = -9.64399179425052238628e-1
DATA expc<>+640(SB)/8, $0xbfeedc5baafd6f4b
DATA expc<>+648(SB)/8, $0xbfeedc5baafd6f4b
DATA expc<>+656(SB)/8, $0xbfeedc5baafd6f4b
DATA expc<>+664(SB)/8, $0xbfeedc5baafd6f4b
// tanhP[1] = -9.92877231001918586564e1
DATA expc<>+672(SB)/8, $0xc058d26a0e26682d
DATA expc<>+680(SB)/8, $0xc058d26a0e26682d
DATA expc<>+688(SB)/8, $0xc058d26a0e26682d
DATA expc<>+696(SB)/8, $0xc058d26a0e26682d
// tanhP[2] = -1.61468768441708447952e3
DATA expc<>+704(SB)/8, $0xc0993ac030580563
DATA expc<>+712(SB)/8, $0xc0993ac030580563
DATA expc<>+720(SB)/8, $0xc0993ac030580563
DATA expc<>+728(SB)/8, $0xc0993ac030580563
// tanhQ[0] = 1.12811678491632931402e2
DATA expc<>+736(SB)/8, $0x405c33f28a581b86
DATA expc<>+744(SB)/8, $0x405c33f28a581b86
DATA expc<>+752(SB)/8, $0x405c33f28a581b86
DATA expc<>+760(SB)/8, $0x405c33f28a581b86
// tanhQ[1] = 2.23548839060100448583e3
DATA expc<>+768(SB)/8, $0x40a176fa0e5535fa
DATA expc<>+776(SB)/8, $0x40a176fa0e5535fa
DATA expc<>+784(SB)/8, $0x40a176fa0e5535fa
DATA expc<>+792(SB)/8, $0x40a176fa0e5535fa
// tanhQ[2] = 4.84406305325125486048e3
DATA expc<>+800(SB)/8, $0x40b2ec102442040c
DATA expc<>+808(SB)/8, $0x40b2ec102442040c
DATA expc<>+816(SB)/8, $0x40b2ec102442040c
DATA expc<>+824(SB)/8, $0x40b2ec102442040c
GLOBL expc<>(SB), RODATA|NOPTR, $832

// EXP4 sets Y0 = exp(Y0) lane by lane (inputs in [-708, 709]); Y1 to Y4
// and X2 are scratch.
#define EXP4 \
	VMULPD       LOG2E, Y0, Y1; \
	VCVTPD2DQY   Y1, X2; \
	VCVTDQ2PD    X2, Y1; \
	VFNMADD231PD LN2U, Y1, Y0; \
	VFNMADD231PD LN2L, Y1, Y0; \
	VMULPD       SIXTEENTH, Y0, Y0; \
	VMOVUPD      C64, Y3; \
	VFMADD213PD  C56, Y0, Y3; \
	VFMADD213PD  C48, Y0, Y3; \
	VFMADD213PD  C40, Y0, Y3; \
	VFMADD213PD  C32, Y0, Y3; \
	VFMADD213PD  C24, Y0, Y3; \
	VFMADD213PD  HALF, Y0, Y3; \
	VFMADD213PD  ONE, Y0, Y3; \
	VMULPD       Y3, Y0, Y0; \
	VADDPD       TWO, Y0, Y3; \
	VMULPD       Y3, Y0, Y0; \
	VADDPD       TWO, Y0, Y3; \
	VMULPD       Y3, Y0, Y0; \
	VADDPD       TWO, Y0, Y3; \
	VMULPD       Y3, Y0, Y0; \
	VADDPD       TWO, Y0, Y3; \
	VFMADD213PD  ONE, Y3, Y0; \
	VPMOVSXDQ    X2, Y4; \
	VPADDQ       BIAS, Y4, Y4; \
	VPSLLQ       $52, Y4, Y4; \
	VMULPD       Y4, Y0, Y0

// INRANGE jumps to stop unless every lane of reg is in [-708, 709]
// (ordered: NaN is out); Y5 is scratch.
#define INRANGE(reg, stop) \
	VCMPPD    $0x1D, LO, reg, Y5; \
	VCMPPD    $0x12, HI, reg, Y1; \
	VANDPD    Y1, Y5, Y5; \
	VMOVMSKPD Y5, DX; \
	CMPQ      DX, $15; \
	JNE       stop

// func expMapAVX2(dst, src []float64, f ExpKind) int
// dst[i] = f(src[i]) block by block of four, from the start, until a block
// with an input outside EXP4's range or fewer than four left; returns the
// number done. dst may be src. f is
//   - ExpMath: math.Exp; the range test is on src;
//   - ExpSigmoid: Sigmoid as the Go function computes it: 1/(1+e) for
//     src >= 0, else e/(1+e), e = exp(-|src|); the test is on -|src|;
//   - ExpELU: src where src > 0, else math.Exp(src) - 1; the test is on
//     min(src, 0);
//   - ExpLogistic: 1/(1+math.Exp(-src)); the test is on -src;
//   - ExpTanh: math.Tanh as math/tanh.go computes it (see maptanh); a
//     block with a NaN stops.
TEXT ·expMapAVX2(SB), NOSPLIT, $0-64
	MOVQ   dst_base+0(FP), DI
	MOVQ   src_base+24(FP), SI
	MOVQ   src_len+32(FP), CX
	MOVQ   f+48(FP), R8
	ANDQ   $-4, CX
	XORQ   AX, AX
	VXORPD Y8, Y8, Y8

maploop:
	CMPQ    AX, CX
	JGE     mapdone
	VMOVUPD (SI)(AX*8), Y6
	CMPQ    R8, $1
	JEQ     mapsigmoid
	CMPQ    R8, $2
	JEQ     mapelu
	CMPQ    R8, $3
	JEQ     maplogistic
	CMPQ    R8, $4
	JEQ     maptanh
	VMOVAPD Y6, Y0
	INRANGE(Y0, mapdone)
	EXP4
	JMP     mapstore

mapsigmoid:
	VORPD     SIGN, Y6, Y0 // -|src|
	INRANGE(Y0, mapdone)
	EXP4
	VADDPD    ONE, Y0, Y7       // 1 + e
	VCMPPD    $0x1D, Y8, Y6, Y9 // src >= 0
	VBLENDVPD Y9, ONE, Y0, Y0   // 1 where src >= 0, else e
	VDIVPD    Y7, Y0, Y0
	JMP       mapstore

mapelu:
	VCMPPD    $0x1E, Y8, Y6, Y9 // src > 0
	VBLENDVPD Y9, Y8, Y6, Y0    // 0 where src > 0, else src
	INRANGE(Y0, mapdone)
	EXP4
	VSUBPD    ONE, Y0, Y0    // e - 1
	VBLENDVPD Y9, Y6, Y0, Y0 // src where src > 0
	JMP       mapstore

maplogistic:
	VXORPD  SIGN, Y6, Y0 // -src
	INRANGE(Y0, mapdone)
	EXP4
	VADDPD  ONE, Y0, Y7 // 1 + e
	VMOVUPD ONE, Y0
	VDIVPD  Y7, Y0, Y0  // 1 / (1 + e)
	JMP     mapstore

	// math/tanh.go, for z = |x|: ±1 where z > 0.5*MAXLOG; where
	// z >= 0.625, 1 - 2/(exp(2z)+1) with x's sign; else x where x == 0,
	// otherwise x + x*s*((P0*s+P1)*s+P2)/(((s+Q0)*s+Q1)*s+Q2), s = x*x,
	// each product and sum rounded (as Go compiles math.tanh below
	// GOAMD64=v3; exp.go keeps this mode off from v3). Every branch is
	// computed on every lane and the lanes pick theirs; the exponential's
	// argument is 0 outside the middle branch, so it stays in EXP4's
	// range.
maptanh:
	VCMPPD    $0x07, Y6, Y6, Y5 // ordered: not NaN
	VMOVMSKPD Y5, DX
	CMPQ      DX, $15
	JNE       mapdone
	VANDPD    ABS, Y6, Y10        // z
	VCMPPD    $0x1D, TEDGE, Y10, Y11   // z >= 0.625
	VCMPPD    $0x12, HMAXLOG, Y10, Y12 // z <= 0.5*MAXLOG
	VANDPD    Y12, Y11, Y13       // the middle branch
	VADDPD    Y10, Y10, Y0        // 2z
	VANDPD    Y13, Y0, Y0         // 2z in the middle branch, else 0
	EXP4
	VADDPD    ONE, Y0, Y0         // exp(2z) + 1
	VMOVUPD   TWO, Y7
	VDIVPD    Y0, Y7, Y7          // 2/(exp(2z)+1)
	VMOVUPD   ONE, Y0
	VSUBPD    Y7, Y0, Y0          // 1 - 2/(exp(2z)+1)
	VMOVUPD   ONE, Y14
	VBLENDVPD Y12, Y0, Y14, Y0    // 1 above 0.5*MAXLOG
	VANDPD    SIGN, Y6, Y7
	VXORPD    Y7, Y0, Y0          // x's sign
	VMULPD    Y6, Y6, Y7          // s = x*x
	VMULPD    TANHP0, Y7, Y9
	VADDPD    TANHP1, Y9, Y9
	VMULPD    Y7, Y9, Y9
	VADDPD    TANHP2, Y9, Y9      // (P0*s+P1)*s+P2
	VADDPD    TANHQ0, Y7, Y14
	VMULPD    Y7, Y14, Y14
	VADDPD    TANHQ1, Y14, Y14
	VMULPD    Y7, Y14, Y14
	VADDPD    TANHQ2, Y14, Y14    // ((s+Q0)*s+Q1)*s+Q2
	VMULPD    Y7, Y6, Y15         // x*s
	VMULPD    Y9, Y15, Y15        // x*s*P
	VDIVPD    Y14, Y15, Y15       // x*s*P/Q
	VADDPD    Y15, Y6, Y15        // x + x*s*P/Q
	VCMPPD    $0x00, Y8, Y6, Y9   // x == 0
	VBLENDVPD Y9, Y6, Y15, Y15    // x where x == 0
	VBLENDVPD Y11, Y0, Y15, Y0    // the rational branch below 0.625

mapstore:
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     maploop

mapdone:
	MOVQ AX, ret+56(FP)
	VZEROUPPER
	RET
