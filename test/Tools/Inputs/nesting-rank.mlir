// A rank-4 dense literal inside a function body nests 5 deep: its third
// '[' (column 31) is the 4th open bracket.
func.func @f() -> tensor<1x1x1x1xf32> {
  %c = arith.constant dense<[[[[1.0]]]]> : tensor<1x1x1x1xf32>
  return %c : tensor<1x1x1x1xf32>
}
