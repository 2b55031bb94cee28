-- %f[set] matches the transition into the set
print(string.gsub("THE (quick) fox", "%f[%a]%a+", "W"))
print(string.find("hello world", "%f[%w]world"))
print(string.gsub("aaa bbb", "%f[%a]", "|"))
print(string.gsub("abc", "%f[%z]", "|"))
