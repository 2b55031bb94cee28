-- hexadecimal integer literals, upper and lower case
print(0x10, 0xff, 0XFF, 0xDeadBeef)
print(math.type(0x10))
print(0x7fffffffffffffff)
