// GuiNN's engine.cpp includes <conio.h> but uses nothing from it.
#pragma once
