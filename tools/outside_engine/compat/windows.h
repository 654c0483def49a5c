// Just enough of the Windows API for GuiNN Checkers' engine files to compile
// on Linux. None of it is called by the protocol wrapper: the thinking
// thread and the window code these serve are never started.
#pragma once
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>

typedef void* HANDLE;
typedef void* HINSTANCE;
typedef void* HWND;
typedef void* HDC;
typedef void* HBITMAP;
typedef void* HMENU;
typedef uint32_t DWORD;
typedef uint16_t WORD;
typedef unsigned int UINT;
typedef int INT;
typedef intptr_t INT_PTR;
typedef intptr_t LRESULT;
typedef uintptr_t WPARAM;
typedef intptr_t LPARAM;
typedef int BOOL;

#define WINAPI
#define CALLBACK
#define __cdecl
#define __declspec(x)
#ifndef TRUE
#define TRUE 1
#define FALSE 0
#endif
#define INFINITE 0xFFFFFFFFu
#ifndef MAX_PATH
#define MAX_PATH 260
#endif

typedef DWORD (*LPTHREAD_START_ROUTINE)(void*);

inline HANDLE CreateEvent(void*, BOOL, BOOL, const char*) { return nullptr; }
inline BOOL SetEvent(HANDLE) { return TRUE; }
inline BOOL ResetEvent(HANDLE) { return TRUE; }
inline DWORD WaitForSingleObject(HANDLE, DWORD) { return 0; }
inline BOOL CloseHandle(HANDLE) { return TRUE; }
inline HANDLE CreateThread(void*, size_t, LPTHREAD_START_ROUTINE, void*, DWORD, DWORD*) { return nullptr; }

// MSVC's names for two C string functions (GuiNN's uncompress.h).
inline char* _strdup(const char* s) { return strdup(s); }
inline char* _strlwr(char* s) {
    for (char* p = s; *p; p++) {
        if (*p >= 'A' && *p <= 'Z') *p = static_cast<char>(*p - 'A' + 'a');
    }
    return s;
}
