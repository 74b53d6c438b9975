//===- quant-translate.cpp - LLVM-dialect module to .ll / .s / .o ---------===//
//
// The back half of the compiler; the driver is TranslateMain.cpp.
//
//===----------------------------------------------------------------------===//

#include "TranslateMain.h"

int main(int argc, char **argv) {
  return quantopt::quantTranslateMain(argc, argv);
}
