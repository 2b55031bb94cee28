-- find returns captures after the positions
print(string.find("key=value", "(%w+)=(%w+)"))
print(string.find("  x", "()x"))
