-- strings compare byte by byte
print("a" < "b", "B" < "a", "abc" < "abd", "" < "\0")
print(("\255"):byte() > ("a"):byte(), "\255" > "a")
