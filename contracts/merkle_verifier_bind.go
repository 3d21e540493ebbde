// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// MerkleVerifierMetaData contains all meta data concerning the MerkleVerifier contract.
var MerkleVerifierMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bytes32\",\"name\":\"root\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"}],\"name\":\"verify\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	Bin: "0x6080604052348015600e575f5ffd5b506101b88061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610029575f3560e01c80635a9a49c71461002d575b5f5ffd5b61004061003b3660046100f1565b610054565b604051901515815260200160405180910390f35b5f6100618585858561006a565b95945050505050565b5f82610077868685610081565b1495945050505050565b5f81815b848110156100b9576100af828787848181106100a3576100a361016e565b905060200201356100c2565b9150600101610085565b50949350505050565b5f8183106100dc575f8281526020849052604090206100ea565b5f8381526020839052604090205b9392505050565b5f5f5f5f60608587031215610104575f5ffd5b843567ffffffffffffffff81111561011a575f5ffd5b8501601f8101871361012a575f5ffd5b803567ffffffffffffffff811115610140575f5ffd5b8760208260051b8401011115610154575f5ffd5b602091820198909750908601359560400135945092505050565b634e487b7160e01b5f52603260045260245ffdfea264697066735822122079329a23fe1983c59df1fe9d9810079ef6dfc32453f9631a52eeddfa6f970b4064736f6c634300081c0033",
}

// MerkleVerifierABI is the input ABI used to generate the binding from.
// Deprecated: Use MerkleVerifierMetaData.ABI instead.
var MerkleVerifierABI = MerkleVerifierMetaData.ABI

// MerkleVerifierBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use MerkleVerifierMetaData.Bin instead.
var MerkleVerifierBin = MerkleVerifierMetaData.Bin

// DeployMerkleVerifier deploys a new Ethereum contract, binding an instance of MerkleVerifier to it.
func DeployMerkleVerifier(auth *bind.TransactOpts, backend bind.ContractBackend) (common.Address, *types.Transaction, *MerkleVerifier, error) {
	parsed, err := MerkleVerifierMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(MerkleVerifierBin), backend)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &MerkleVerifier{MerkleVerifierCaller: MerkleVerifierCaller{contract: contract}, MerkleVerifierTransactor: MerkleVerifierTransactor{contract: contract}, MerkleVerifierFilterer: MerkleVerifierFilterer{contract: contract}}, nil
}

// MerkleVerifier is an auto generated Go binding around an Ethereum contract.
type MerkleVerifier struct {
	MerkleVerifierCaller     // Read-only binding to the contract
	MerkleVerifierTransactor // Write-only binding to the contract
	MerkleVerifierFilterer   // Log filterer for contract events
}

// MerkleVerifierCaller is an auto generated read-only Go binding around an Ethereum contract.
type MerkleVerifierCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// MerkleVerifierTransactor is an auto generated write-only Go binding around an Ethereum contract.
type MerkleVerifierTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// MerkleVerifierFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type MerkleVerifierFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// MerkleVerifierSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type MerkleVerifierSession struct {
	Contract     *MerkleVerifier   // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// MerkleVerifierCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type MerkleVerifierCallerSession struct {
	Contract *MerkleVerifierCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts         // Call options to use throughout this session
}

// MerkleVerifierTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type MerkleVerifierTransactorSession struct {
	Contract     *MerkleVerifierTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts         // Transaction auth options to use throughout this session
}

// MerkleVerifierRaw is an auto generated low-level Go binding around an Ethereum contract.
type MerkleVerifierRaw struct {
	Contract *MerkleVerifier // Generic contract binding to access the raw methods on
}

// MerkleVerifierCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type MerkleVerifierCallerRaw struct {
	Contract *MerkleVerifierCaller // Generic read-only contract binding to access the raw methods on
}

// MerkleVerifierTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type MerkleVerifierTransactorRaw struct {
	Contract *MerkleVerifierTransactor // Generic write-only contract binding to access the raw methods on
}

// NewMerkleVerifier creates a new instance of MerkleVerifier, bound to a specific deployed contract.
func NewMerkleVerifier(address common.Address, backend bind.ContractBackend) (*MerkleVerifier, error) {
	contract, err := bindMerkleVerifier(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &MerkleVerifier{MerkleVerifierCaller: MerkleVerifierCaller{contract: contract}, MerkleVerifierTransactor: MerkleVerifierTransactor{contract: contract}, MerkleVerifierFilterer: MerkleVerifierFilterer{contract: contract}}, nil
}

// NewMerkleVerifierCaller creates a new read-only instance of MerkleVerifier, bound to a specific deployed contract.
func NewMerkleVerifierCaller(address common.Address, caller bind.ContractCaller) (*MerkleVerifierCaller, error) {
	contract, err := bindMerkleVerifier(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &MerkleVerifierCaller{contract: contract}, nil
}

// NewMerkleVerifierTransactor creates a new write-only instance of MerkleVerifier, bound to a specific deployed contract.
func NewMerkleVerifierTransactor(address common.Address, transactor bind.ContractTransactor) (*MerkleVerifierTransactor, error) {
	contract, err := bindMerkleVerifier(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &MerkleVerifierTransactor{contract: contract}, nil
}

// NewMerkleVerifierFilterer creates a new log filterer instance of MerkleVerifier, bound to a specific deployed contract.
func NewMerkleVerifierFilterer(address common.Address, filterer bind.ContractFilterer) (*MerkleVerifierFilterer, error) {
	contract, err := bindMerkleVerifier(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &MerkleVerifierFilterer{contract: contract}, nil
}

// bindMerkleVerifier binds a generic wrapper to an already deployed contract.
func bindMerkleVerifier(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := MerkleVerifierMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_MerkleVerifier *MerkleVerifierRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _MerkleVerifier.Contract.MerkleVerifierCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_MerkleVerifier *MerkleVerifierRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _MerkleVerifier.Contract.MerkleVerifierTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_MerkleVerifier *MerkleVerifierRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _MerkleVerifier.Contract.MerkleVerifierTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_MerkleVerifier *MerkleVerifierCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _MerkleVerifier.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_MerkleVerifier *MerkleVerifierTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _MerkleVerifier.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_MerkleVerifier *MerkleVerifierTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _MerkleVerifier.Contract.contract.Transact(opts, method, params...)
}

// Verify is a free data retrieval call binding the contract method 0x5a9a49c7.
//
// Solidity: function verify(bytes32[] proof, bytes32 root, bytes32 leaf) pure returns(bool)
func (_MerkleVerifier *MerkleVerifierCaller) Verify(opts *bind.CallOpts, proof [][32]byte, root [32]byte, leaf [32]byte) (bool, error) {
	var out []interface{}
	err := _MerkleVerifier.contract.Call(opts, &out, "verify", proof, root, leaf)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// Verify is a free data retrieval call binding the contract method 0x5a9a49c7.
//
// Solidity: function verify(bytes32[] proof, bytes32 root, bytes32 leaf) pure returns(bool)
func (_MerkleVerifier *MerkleVerifierSession) Verify(proof [][32]byte, root [32]byte, leaf [32]byte) (bool, error) {
	return _MerkleVerifier.Contract.Verify(&_MerkleVerifier.CallOpts, proof, root, leaf)
}

// Verify is a free data retrieval call binding the contract method 0x5a9a49c7.
//
// Solidity: function verify(bytes32[] proof, bytes32 root, bytes32 leaf) pure returns(bool)
func (_MerkleVerifier *MerkleVerifierCallerSession) Verify(proof [][32]byte, root [32]byte, leaf [32]byte) (bool, error) {
	return _MerkleVerifier.Contract.Verify(&_MerkleVerifier.CallOpts, proof, root, leaf)
}
