"func.func"() <{function_type = (tensor<1x!quant.uniform<i32:f32, 0.5>>) -> (), sym_name = "f"}> ({
^bb0(%a: tensor<1x!quant.uniform<i32:f32, 0.5>>):
  %y = "qnt.requantize"(%a) <{rounding = "up"}> : (tensor<1x!quant.uniform<i32:f32, 0.5>>) -> tensor<1x!quant.uniform<i8:f32, 1.0>>
  "func.return"() : () -> ()
}) : () -> ()
