-- assert returns all its arguments on success
print(assert(1, 2, 3))
print(assert("v"))
print(select("#", assert(true, nil, nil)))
