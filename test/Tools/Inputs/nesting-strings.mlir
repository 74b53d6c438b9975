// Brackets that do not nest: in a string (with an escaped quote), in this
// comment ((((([[[[[{{{{{, and unbalanced closers ]]]].
func.func @f() attributes {note = "[[[[[(((({{{{\"["} {
  return
}
