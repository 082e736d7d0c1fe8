import JWSVerify
print("jwsverify")
