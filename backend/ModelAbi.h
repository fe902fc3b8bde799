/* The C signatures of the functions eqc generates for a model (JIT and object code alike): they
 * are part of the runtime's public model interface. */
#ifndef EQC_MODEL_ABI_H
#define EQC_MODEL_ABI_H

#include "runtime/include/eqc/eqc_model.h"

#endif /* EQC_MODEL_ABI_H */
