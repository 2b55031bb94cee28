-- [...] sets with ranges, classes, and negation
print(("hello World 42"):gsub("[a-z]", "."))
print(("hello World 42"):gsub("[^%a]", ""))
print(("a-b]c"):gsub("[%]%-]", "_"))
print(("a-b"):gsub("[a-]", "X"))
print(("^x"):gsub("[x^]", "Y"))
