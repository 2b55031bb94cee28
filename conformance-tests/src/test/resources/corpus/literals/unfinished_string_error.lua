-- unfinished strings are syntax errors
print(load('return "abc'))
print(load("return 'abc\ndef'"))
print(load("return [[abc"))
