/* librdx definitions (runtime/src/ops/cl_definitions.cpp): f32 elements, f32 accumulator, sum */
#define RDX_DEFINITIONS 1
#define OP_SUM 0
#define OP_PROD 1
#define OP_MIN 2
#define OP_MAX 3
#define OP_AND 4
#define OP_OR 5
#define OP_XOR 6
#define OP_ARGMIN 7
#define OP_ARGMAX 8
#define OP_NANMIN 9
#define OP_NANMAX 10
#define OP_NANARGMIN 11
#define OP_NANARGMAX 12
#define OP OP_SUM
#define VALUE_OP OP_SUM
#define T float
#define T_COMPUTE float
#define T_VALUE(x) (x)
#define T_VALUES(N, x) (x)
#define LOAD_T(p, k) T_VALUE((p)[(k)])
#define ACC float
#define ACC_BYTES 4
#define ACC_IS_FLOAT 1
#define ATOMIC_FORM_ADD 1
#define COMBINE_VALUES(a, b) ((a) + (b))
#define IDENTITY_VALUE (float)0
#define VCOMBINE(a, b) ((a) + (b))
