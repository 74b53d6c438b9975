// The runtime-scale benchmark's kernel (bench/run-runtime-scales-bench.sh):
// per-row dequantization of i8 codes, 1024 rows of 4096, scale and offset
// 1024x1, as an NPU tile's dequantize step.
func.func @dequantize_dynamic_rows(%src: tensor<1024x4096xi8>,
                                   %scale: tensor<1024x1xf32>,
                                   %offset: tensor<1024x1xf32>)
    -> tensor<1024x4096xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<1024x4096xi8>, tensor<1024x1xf32>, tensor<1024x1xf32> -> tensor<1024x4096xf32>
  return %r : tensor<1024x4096xf32>
}

// The same, 4096 rows: 80 MB read + written, beyond the L3 of the
// development machine (32 MB).
func.func @dequantize_dynamic_rows_large(%src: tensor<4096x4096xi8>,
                                         %scale: tensor<4096x1xf32>,
                                         %offset: tensor<4096x1xf32>)
    -> tensor<4096x4096xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<4096x4096xi8>, tensor<4096x1xf32>, tensor<4096x1xf32> -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
