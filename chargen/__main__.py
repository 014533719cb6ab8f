from chargen.launch import main

main()
