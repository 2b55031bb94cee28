-- values of different types are never equal and comparing them is not an error
print(1 == "1", nil == false, {} == "table")
print(0 == false, "" == nil)
print(1 ~= "1")
