-- break outside a loop is a syntax error
print(load("break"))
print(load("if true then break end"))
