-- %bxy matches balanced pairs
print(string.match("f(a(b)c) rest", "%b()"))
print(string.match("[[x]]", "%b[]"))
print(string.match("(unbalanced", "%b()"))
print(string.gsub("a{b}c{d{e}}", "%b{}", "<>"))
