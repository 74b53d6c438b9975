"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  "qnt.conv2d"() : () -> ()
  "func.return"() : () -> ()
}) : () -> ()
