-- '-' may match the empty string
print(string.match("aaa", "a-"), #string.match("aaa", "a-"))
print(string.match("aaa", "a-$"))
print(string.match("abc", "(.-)c"))
