print("tonenode")
