-- a negative init counts from the end; init past the end fails
print(string.find("abcabc", "abc", -3))
print(string.find("abcabc", "abc", -100))
print(string.find("abc", "c", 4))
print(string.find("abc", "", 4))
