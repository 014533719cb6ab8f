from chargen.cli import main

main()
