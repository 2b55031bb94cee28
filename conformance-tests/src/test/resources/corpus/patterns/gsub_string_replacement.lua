-- gsub replacement strings: %0 whole match, %1.. captures, %% literal percent
print(string.gsub("hello world", "o", "0"))
print(string.gsub("hello world", "(%w+)", "<%1>"))
print(string.gsub("abc", "%w", "%0%0"))
print(string.gsub("50", "%d+", "%0%%"))
print(string.gsub("abc", "", "-"))
